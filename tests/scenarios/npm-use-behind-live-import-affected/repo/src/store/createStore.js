import { applyMiddleware, createStore } from "redux";
import reducer from "./reducer";
import logger from "./middleware/logger";

export function makeStore() {
  return createStore(reducer, applyMiddleware(logger));
}
