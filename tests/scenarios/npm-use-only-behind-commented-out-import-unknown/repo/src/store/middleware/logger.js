import { createLogger } from "redux-logger";
import toPlain from "../../utils/toPlain";

export default createLogger({ stateTransformer: toPlain });
