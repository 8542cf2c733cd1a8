import React from 'react';
import { Popover } from 'widgetkit';

export function Menu({ items }: { items: string[] }) {
  return (
    <Popover content={items.join(', ')} popupAlign={{ offset: [0, 4] }}>
      <button type="button">Menu</button>
    </Popover>
  );
}
