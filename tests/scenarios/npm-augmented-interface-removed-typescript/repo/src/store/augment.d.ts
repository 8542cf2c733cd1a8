import "storekit";
import { RootState } from "./index";

declare module "storekit" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface
  interface DefaultRootState extends RootState {}
}
