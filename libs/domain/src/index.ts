export * from './plans';
export * from './passwords';
export * from './templates';
export * from './suggester';
export * from './source-drift';
