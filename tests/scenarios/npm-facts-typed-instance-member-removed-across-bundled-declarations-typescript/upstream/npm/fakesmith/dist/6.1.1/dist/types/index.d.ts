import { Smith } from './smith';
export { Smith };
export declare const smith: Smith;
export default smith;
