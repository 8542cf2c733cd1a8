import React from 'react';
import { Tooltip } from 'widgetkit';

export function Help({ text }: { text: string }) {
  return (
    <Tooltip title={text} popupAlign={{ offset: [0, 8] }}>
      <span className="help-icon">?</span>
    </Tooltip>
  );
}
