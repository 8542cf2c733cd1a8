function useStore(selector) { return selector({ items: [] }); }
function createStore(state) { return { getState: () => state }; }
function StoreProvider(props) { return props.children; }
module.exports = { useStore, createStore, StoreProvider };
