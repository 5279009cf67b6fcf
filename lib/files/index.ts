export * from './file-kind';
export * from './parse-yaml';
export * from './read-regular-file';
