// What the views may ask the page to do (load the game, send a move, act on an offer, …), filled in
// once by game.js, the page's controller: a view calls them without importing the controller, so no
// module imports one that imports it back.
export const actions = {
  load: null,             // () => read the game and draw it again
  sendMove: null,         // (text) => send a move in the game's notation; true when it was played
  act: null,              // (what, body) => resign, draw or undo (an offer, or its answer)
  answerChallenge: null,  // (gameId, "accept" | "decline")
  resume: null,           // (seat) => play this seat: read the game as it sees it, and listen
};

export function provide(found) {
  for (const name of Object.keys(found)) {
    if (!(name in actions)) throw new Error(`the game page has no action ${name}`);
  }
  Object.assign(actions, found);
}
