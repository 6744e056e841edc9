// The account pages: change the password or the e-mail address (/account); ask for a password reset
// link, and set a new password from it (/reset, the one-time token after the # of the e-mailed link,
// so that it never reaches a server's log).
import { api, el, tell, whoAmI, byId as $ } from "./common.js";

const say = (id, text, kind = "error") => tell($(id), text, kind);

// -- /account --------------------------------------------------------------------------------

if ($("password-form")) {
  (async () => {
    const name = await whoAmI();
    if (!name) return;
    const me = await api("/api/me");
    $("account-who").textContent = `Signed in as ${me.name}.`;
    $("email-form").elements.email.value = me.email || "";
    $("account-forms").hidden = false;
  })();

  $("password-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target.elements;
    if (form.new.value !== form.again.value) { say("password-message", "the two new passwords differ"); return; }
    try {
      await api("/api/password", { method: "POST", body: { current: form.current.value, new: form.new.value } });
      event.target.reset();
      say("password-message", "Your password is changed; your other sessions have ended.", "info");
    } catch (error) {
      say("password-message", error.message);
    }
  });

  $("email-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target.elements;
    try {
      const me = await api("/api/email", {
        method: "POST", body: { password: form.password.value, email: form.email.value.trim() || null },
      });
      form.password.value = "";
      say("email-message", me.email ? `Saved: ${me.email}.` : "No e-mail address now.", "info");
    } catch (error) {
      say("email-message", error.message);
    }
  });
}

// -- /reset ----------------------------------------------------------------------------------

if ($("reset-ask")) {
  const token = location.hash.slice(1);
  if (token) {
    $("reset-ask").hidden = true;
    $("reset-set").hidden = false;
  }

  $("reset-ask").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await api("/api/password-reset", {
        method: "POST", body: { name_or_email: event.target.elements.who.value },
      });
      say("reset-ask-message", answer.detail.replace(/^./, (c) => c.toUpperCase()) + ".", "info");
    } catch (error) {
      say("reset-ask-message", error.message);
    }
  });

  $("reset-set").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target.elements;
    if (form.password.value !== form.again.value) { say("reset-set-message", "the two passwords differ"); return; }
    try {
      const out = await api("/api/password-reset/confirm", {
        method: "POST", body: { token, password: form.password.value },
      });
      history.replaceState(null, "", "/reset");  // the token is spent: out of the address bar
      say("reset-set-message", `Your new password is set, and you are signed in as ${out.user}.`, "info");
      form.password.disabled = form.again.disabled = true;
      $("reset-set").querySelector("button").disabled = true;
      $("reset-set").append(el("p", {}, el("a", { href: "/", id: "to-lobby" }, "To the lobby")));
    } catch (error) {
      say("reset-set-message", error.message);
    }
  });
}
