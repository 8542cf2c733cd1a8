export declare function Route(props: { path?: string }): unknown;
export declare function Switch(props: { children?: unknown }): unknown;
export declare function Redirect(props: { to: string }): unknown;
export declare function useHistory(): { push(path: string): void };
export declare function useParams(): Record<string, string>;
