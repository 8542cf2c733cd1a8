export = guard;
declare function guard(options: guard.Options): guard.Handler;
declare namespace guard {
    interface Options {
        secret: string;
        audience?: string;
        algorithms?: string[];
    }
    interface Handler { (req: unknown, res: unknown, next: () => void): void; }
    class UnauthorizedError extends Error {}
}
