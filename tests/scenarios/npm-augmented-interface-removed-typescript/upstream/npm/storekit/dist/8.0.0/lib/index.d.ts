export declare function useSelector<TState = unknown, TSelected = unknown>(
  selector: (state: TState) => TSelected,
): TSelected;
export declare function useDispatch(): (action: unknown) => void;
