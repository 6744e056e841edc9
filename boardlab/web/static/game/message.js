// The page's one-line message: an error (what was refused, and why) or what was done.
import { byId as $ } from "../common.js";

export function say(text, kind = "error") {
  const message = $("message");
  message.textContent = text || "";
  message.className = `message ${kind}`;
}
