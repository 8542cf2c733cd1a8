import { Key, DataHook } from 'datahook/_internal';
export { Key, DataHook, DataResponse } from 'datahook/_internal';

declare const useData: DataHook;

export { useData as default };
