export declare type keyInterface = string | null;
export declare type fetcherFn<Data> = (...args: any) => Data | Promise<Data>;
export declare type responseInterface<Data, Error> = {
    data?: Data;
    error?: Error;
    revalidate: () => Promise<boolean>;
    mutate: (data?: Data) => Promise<Data | undefined>;
    isValidating: boolean;
};
