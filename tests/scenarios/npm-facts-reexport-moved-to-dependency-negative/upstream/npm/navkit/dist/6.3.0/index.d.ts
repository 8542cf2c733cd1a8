export declare function Route(props: { path?: string; element?: unknown }): unknown;
export declare function Routes(props: { children?: unknown }): unknown;
