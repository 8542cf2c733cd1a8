class Cache {
  fetchJson(key: string): unknown { return JSON.parse(key); }
}

export class Legacy {
  private store: Cache;

  constructor() { this.store = new Cache(); }

  read(key: string) {
    return this.store.fetchJson(key);
  }
}
