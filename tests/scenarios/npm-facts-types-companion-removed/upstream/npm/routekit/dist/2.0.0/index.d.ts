export declare function Router(props: { children?: unknown }): unknown;
export declare function Routes(props: { children?: unknown }): unknown;
export declare function Route(props: { path: string }): unknown;
export declare function useNavigate(): (to: string) => void;
