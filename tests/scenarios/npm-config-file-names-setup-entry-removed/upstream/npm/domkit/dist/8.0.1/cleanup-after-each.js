afterEach(() => { /* unmount everything */ });
