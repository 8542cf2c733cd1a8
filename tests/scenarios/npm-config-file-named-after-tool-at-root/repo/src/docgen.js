// renders the widgets' own API pages
export const settings = {
  mode: "compact",
  title: "Widgets",
};
