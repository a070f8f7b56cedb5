import type { StateChange } from '../../../api/history';

/** Colour of an event: red for what an operator must look at (alarm raised, seal broken, fault, opened). */
export function changeColor(e: Pick<StateChange, 'kind' | 'to'>): string {
  switch (e.kind) {
    case 'alarm':
      return e.to === 'raised' ? 'red' : 'default';
    case 'seal':
      return e.to === 'broken' ? 'red' : 'blue';
    case 'fault':
      return e.to === 'fault' ? 'red' : 'green';
    case 'open':
      return e.to === 'open' ? 'orange' : 'green';
    case 'lock':
      return e.to === 'locked' ? 'green' : 'orange';
  }
  return 'blue';
}
