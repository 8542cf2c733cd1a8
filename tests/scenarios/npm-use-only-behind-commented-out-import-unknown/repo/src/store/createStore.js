import { applyMiddleware, createStore } from "redux";
import reducer from "./reducer";
// import logger from './middleware/logger';  // Uncomment to show logs in the console.

export function makeStore() {
  return createStore(reducer, applyMiddleware(/* logger */));
}
