import { keyInterface, fetcherFn, responseInterface } from './types';
declare function useData<Data = any, Error = any>(key: keyInterface): responseInterface<Data, Error>;
declare function useData<Data = any, Error = any>(key: keyInterface, fn?: fetcherFn<Data>): responseInterface<Data, Error>;
export default useData;
