export * from './use-data';
import { default as useData } from './use-data';
export { responseInterface, keyInterface } from './types';
export default useData;
