export * from './plans';
export * from './passwords';
