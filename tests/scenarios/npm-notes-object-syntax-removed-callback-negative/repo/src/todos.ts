import { createSlice } from "slicekit";
import { fetchTodos } from "./api";

export const todos = createSlice({
  name: "todos",
  initialState: [] as string[],
  reducers: {},
  extraReducers: (builder) => {
    builder.addCase(fetchTodos.fulfilled, (state, action) => action.payload);
  },
});
