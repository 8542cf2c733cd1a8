const { render, fireEvent } = require('domkit');

test('submits', () => {
  const { container } = render('<form></form>');
  fireEvent(container, 'submit');
});
