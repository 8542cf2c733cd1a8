export declare function Route(props: { path?: string; element?: unknown }): unknown;
export declare function Routes(props: { children?: unknown }): unknown;
export declare function Navigate(props: { to: string }): unknown;
export declare function useNavigate(): (path: string) => void;
export declare function useParams(): Record<string, string>;
