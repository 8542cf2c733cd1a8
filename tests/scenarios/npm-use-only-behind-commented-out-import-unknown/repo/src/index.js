import { makeStore } from "./store/createStore";
import { render } from "./view";

render(makeStore());
