type Key = string | null;
type Fetcher<Data> = (...args: any) => Data | Promise<Data>;
interface DataResponse<Data = any, Error = any> {
    data: Data | undefined;
    error: Error | undefined;
    mutate: (data?: Data) => Promise<Data | undefined>;
    isValidating: boolean;
    isLoading: boolean;
}
interface DataHook {
    <Data = any, Error = any>(key: Key): DataResponse<Data, Error>;
    <Data = any, Error = any>(key: Key, fetcher: Fetcher<Data> | null): DataResponse<Data, Error>;
}
export { Key, Fetcher, DataResponse, DataHook };
