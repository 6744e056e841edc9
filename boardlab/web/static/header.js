// Every page's header: who is signed in (a link to their profile and account), or "guest".
import { el, whoAmI } from "./common.js";

const who = document.getElementById("who");
const name = await whoAmI();
if (who && name) {
  who.replaceChildren("signed in as ", el("a", { href: `/users/${encodeURIComponent(name)}` }, name),
    " · ", el("a", { href: "/account" }, "account"));
} else if (who) {
  who.textContent = "guest";
}
