import { createSlice } from "slicekit";
import { fetchTodos } from "./api";

export const todos = createSlice({
  name: "todos",
  initialState: [] as string[],
  reducers: {},
  extraReducers: {
    [fetchTodos.fulfilled.type]: (state, action) => action.payload,
  },
});
