export declare function onCLS<T extends number = number>(report: (value: T) => void): void;
export declare function onLCP<T extends number = number>(report: (value: T) => void): void;
