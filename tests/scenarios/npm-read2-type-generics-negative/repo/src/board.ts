export interface Board { columns: string[] }

export function boardReducer(state: Board = { columns: [] }, action: { type: string }): Board {
  return action.type === 'reset' ? { columns: [] } : state;
}
