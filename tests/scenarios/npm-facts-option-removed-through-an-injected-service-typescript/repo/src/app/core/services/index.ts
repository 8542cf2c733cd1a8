export * from './alert.service';
export * from './customer.service';
