import { BrowserRouter, Link, Route, Routes, useNavigate } from "navkit-dom";

export function Checkout() {
  const navigate = useNavigate();
  return <button onClick={() => navigate("/done")}>Pay</button>;
}

export function App() {
  return (
    <BrowserRouter>
      <Link to="/checkout">Checkout</Link>
      <Routes>
        <Route path="/checkout" element={<Checkout />} />
      </Routes>
    </BrowserRouter>
  );
}
