export const editorDefaults = {
  indentation: 2,
  wrap: true,
};
