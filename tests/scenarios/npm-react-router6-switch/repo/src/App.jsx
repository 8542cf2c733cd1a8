import React from 'react';
import { BrowserRouter, Switch, Route, useHistory } from 'react-router-dom';
import { Settings } from './Settings.jsx';

function Home() {
  const history = useHistory();
  return <button onClick={() => history.push('/settings')}>Settings</button>;
}

export function App() {
  return (
    <BrowserRouter>
      <Switch>
        <Route exact path="/" component={Home} />
        <Route path="/settings" component={Settings} />
      </Switch>
    </BrowserRouter>
  );
}
