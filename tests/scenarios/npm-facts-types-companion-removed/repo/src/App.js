import { Router, Switch, Route } from 'routekit';

export default function App() {
  return (
    <Router>
      <Switch>
        <Route path="/" />
      </Switch>
    </Router>
  );
}
