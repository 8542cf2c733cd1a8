import React from 'react';
import { Link } from 'react-router-dom';

// a <Switch> toggle for dark mode lives here, not a router switch
export function Settings() {
  const [dark, setDark] = React.useState(false);
  return (
    <div>
      <label><input type="checkbox" checked={dark} onChange={() => setDark(!dark)} /> Dark mode</label>
      <Link to="/">Back</Link>
    </div>
  );
}
