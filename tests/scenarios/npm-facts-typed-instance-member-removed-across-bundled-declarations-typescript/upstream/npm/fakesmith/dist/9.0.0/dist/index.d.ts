import { S as Smith } from './chunk-Q2X7.cjs';
export { C as CompanyModule, P as PersonModule } from './chunk-Q2X7.cjs';
declare const smith: Smith;
export { Smith, smith, smith as default };
