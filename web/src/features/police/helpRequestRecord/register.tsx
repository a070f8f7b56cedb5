import { helpRequestOf } from '../../../api/help';
import { registerHelpView } from '../../../app/liveMessages';
import { HelpRequestView } from './HelpRequestView';

// The 求助消息 dialog of the live messages shows this view for every requestHelp message.
registerHelpView((message, close, answered) => <HelpRequestView request={helpRequestOf(message)} onClose={close} onDealt={(ok) => ok && answered()} />);
