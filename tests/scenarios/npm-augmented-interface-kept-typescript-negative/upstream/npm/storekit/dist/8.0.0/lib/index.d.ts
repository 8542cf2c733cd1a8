/** The state hooks pass to selectors by default: augment it to type your selectors. */
export interface DefaultRootState {}
export declare function useSelector<TState = DefaultRootState, TSelected = unknown>(
  selector: (state: TState) => TSelected,
): TSelected;
export declare function useDispatch(): (action: unknown) => void;
