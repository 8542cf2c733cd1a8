import "storekit";
import { RootState } from "./index";

declare module "storekit" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface
  interface DefaultRootState extends RootState {}
  // the app's own addition: storekit never declared it
  interface StoreExtras {
    devtools: boolean;
  }
}
