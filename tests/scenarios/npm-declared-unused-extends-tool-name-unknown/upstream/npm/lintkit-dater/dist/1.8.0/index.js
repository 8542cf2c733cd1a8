module.exports = function Dater(props) { return props.selected; };
