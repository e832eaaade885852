// What the log says of an error: its message's first line (a stack or a library's multi-line detail would bury it).
export const errorLine = (e: unknown): string => String((e as Error)?.message ?? e).split('\n')[0];
