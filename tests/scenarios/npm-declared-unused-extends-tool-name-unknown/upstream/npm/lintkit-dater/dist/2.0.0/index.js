module.exports = function Dater(props) { return new Date(props.selected); };
