import React from 'react';
import codec from 'lib/codec';

export default function Download({ blob }) {
  const unpack = () => codec.inflateRaw(blob, () => {});
  return <button onClick={unpack}>Unpack</button>;
}
