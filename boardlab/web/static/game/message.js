// The game page's one-line message: an error (what was refused, and why) or what was done.
import { byId, tell } from "../common.js";

export const say = (text, kind = "error") => tell(byId("message"), text, kind);
