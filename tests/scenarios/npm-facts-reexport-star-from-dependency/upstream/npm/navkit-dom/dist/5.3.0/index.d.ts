export * from "navkit";
export declare function BrowserRouter(props: { children?: unknown }): unknown;
export declare function Link(props: { to: string }): unknown;
