export const colors = { primary: "#3355ff", danger: "#cc2222" };
