// Placeholder until the page of issue 16 lands: the honest 'not available yet' state.
export { default } from '../../common/NotReadyPage';
