// A game's live event stream (Server-Sent Events). A spectator's EventSource reconnects by
// itself with Last-Event-ID; a seat's stream is opened with a single-use ticket, so after a
// drop it is opened again with a fresh ticket and `after` = the last event received. Nothing
// is skipped or repeated either way.

const RETRY_MILLISECONDS = 1000;

export class LiveStream {
  /** `open(after, again)` answers the stream's URL, or null to stop (the game is over). */
  constructor({ open, ticketed, onRecord, onEnd, onStatus }) {
    Object.assign(this, { open, ticketed, onRecord, onEnd, onStatus });
    this.stopped = false;
  }

  start(after) {
    this.last = after;
    this.connect(false);
  }

  async connect(again) {
    if (this.stopped) return;
    let url;
    try {
      url = await this.open(this.last, again);
    } catch {
      this.retry();
      return;
    }
    if (url === null || this.stopped) return;
    const source = new EventSource(url);
    this.source = source;
    source.onopen = () => this.onStatus("live");
    source.onmessage = (message) => {
      const record = JSON.parse(message.data);
      if (record.seq <= this.last) return;
      this.last = record.seq;
      this.onRecord(record);
    };
    source.addEventListener("end", (message) => {
      this.stop();
      this.onEnd(JSON.parse(message.data));
    });
    source.onerror = () => {
      if (this.stopped) return;
      this.onStatus("reconnecting");
      if (this.ticketed || source.readyState === EventSource.CLOSED) {
        source.close(); // a used ticket opens nothing: ask for another one
        this.retry();
      }
    };
  }

  retry() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(true), RETRY_MILLISECONDS);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.source?.close();
  }
}
