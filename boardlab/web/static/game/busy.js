// While the page waits for the server, <body data-busy> says so (tests wait on it, too).

let waits = 0;  // requests in flight

export async function busy(work) {
  waits += 1;
  document.body.dataset.busy = "1";
  try { return await work(); } finally {
    waits -= 1;
    if (!waits) delete document.body.dataset.busy;
  }
}

// Busy from the page's start until its first board is drawn (or it says why not).
export function busyUntil(start) {
  document.body.dataset.busy = "1";
  return start().finally(() => { if (!waits) delete document.body.dataset.busy; });
}
