export interface Options { method?: string; json?: unknown; headers?: Record<string, string>; }
export interface Response<T = unknown> { statusCode: number; body: T; }
export declare class HTTPError extends Error { response: Response; }
declare const fetchkit: {
    <T = string>(url: string, options?: Options): Promise<Response<T>>;
    post<T = string>(url: string, options?: Options): Promise<Response<T>>;
};
export default fetchkit;
