export declare function Router(props: { children?: unknown }): unknown;
export declare function Switch(props: { children?: unknown }): unknown;
export declare function Route(props: { path: string }): unknown;
export declare function useHistory(): { push(to: string): void };
