export declare function onCLS(report: (value: number) => void): void;
export declare function onLCP(report: (value: number) => void): void;
/** @deprecated use onLCP */
export declare function getLCP(report: (value: number) => void): void;
/** @deprecated use onCLS */
export declare function getCLS(report: (value: number) => void): void;
