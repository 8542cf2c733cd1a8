import { BrowserRouter, Route, Switch, useHistory } from "navkit-dom";

export function Checkout() {
  const history = useHistory();
  return <button onClick={() => history.push("/done")}>Pay</button>;
}

export function App() {
  return (
    <BrowserRouter>
      <Switch>
        <Route path="/checkout" component={Checkout} />
      </Switch>
    </BrowserRouter>
  );
}
